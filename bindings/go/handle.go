package nanograph

import "sync"

// The handles a Go value owns share one implementation: owned (a handle freed once by Close)
// and counted (an owned handle to an object the library counts references to, which Retain
// shares). A kind says what differs between them: the name in errors, how the object is freed,
// retained and wrapped in its Go type. Kinds are empty types, so a handle costs its pointer and
// its lock.

// kind is what differs between owned handles to library objects of type H.
type kind[H any] interface {
	name() string // in the error of a closed handle ("tensor")
	free(h *H)    // releases this handle's reference, or destroys the object
}

// owned is a handle a Go value owns: handle() fails once Close has run; Close frees it once
// (safe to repeat, and from several goroutines).
type owned[H any, K kind[H]] struct {
	mu sync.Mutex
	h  *H
}

func (o *owned[H, K]) handle() (*H, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.h == nil {
		var k K
		return nil, closedError(k.name())
	}
	return o.h, nil
}

// hold is handle() keeping the object open (Close waits) until done is called: for reading
// what the object owns, such as its strings.
func (o *owned[H, K]) hold() (h *H, done func(), err error) {
	o.mu.Lock()
	if o.h == nil {
		o.mu.Unlock()
		var k K
		return nil, nil, closedError(k.name())
	}
	return o.h, o.mu.Unlock, nil
}

// release frees the handle and reports whether this call did (false when already closed).
func (o *owned[H, K]) release() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.h == nil {
		return false
	}
	var k K
	k.free(o.h)
	o.h = nil
	return true
}

// Close frees the handle's object (or its reference to it). Safe to repeat.
func (o *owned[H, K]) Close() { o.release() }

// countedKind is a kind of reference-counted object, wrapped in the Go type W.
type countedKind[H any, W any] interface {
	kind[H]
	retain(h *H)
	wrap(h *H) W // a new Go value owning one reference (with its finalizer)
}

// counted is an owned handle to a reference-counted object: Retain is a second handle.
type counted[H any, W any, K countedKind[H, W]] struct {
	owned[H, K]
}

// Retain is a second handle to the same object, closed independently of this one.
func (c *counted[H, W, K]) Retain() (W, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var k K
	if c.h == nil {
		var none W
		return none, closedError(k.name())
	}
	k.retain(c.h)
	return k.wrap(c.h), nil
}
