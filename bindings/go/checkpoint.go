package nanograph

/*
#include <stdlib.h>
#include <nanograph/nanograph.h>
*/
import "C"

import "runtime"

// Save writes the transformer's persistent values (variables, optimizer state, other persistent
// tensors, each found by its op's name) and its random generator's state to a checkpoint file.
// An existing file is replaced atomically: a failure leaves it as it was. Runs of the
// transformer's computations wait while the values are copied; Save may be called from any
// goroutine.
func (t *Transformer) Save(path string) error {
	h, err := t.handle()
	if err != nil {
		return err
	}
	defer runtime.KeepAlive(t)
	p := cstr(path)
	defer free(p)
	return status(func() C.ng_status_t { return C.ng_transformer_save(h, p) })
}

// Load replaces the transformer's persistent values and random generator state with those of a
// checkpoint written by Save: build the same graph (same op names) and create the same
// computations first, so that the transformer knows every tensor. All or nothing: on any error
// every value is as it was.
func (t *Transformer) Load(path string) error {
	h, err := t.handle()
	if err != nil {
		return err
	}
	defer runtime.KeepAlive(t)
	p := cstr(path)
	defer free(p)
	return status(func() C.ng_status_t { return C.ng_transformer_load(h, p) })
}
