package nanograph

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// Eight goroutines each make 20,000 failing calls whose message names a value unique to the
// call. Goroutines move between OS threads and the library's last error is per thread: every
// message must still be the call's own (none lost, none from another goroutine).
func TestErrorMessagesBelongToTheirCall(t *testing.T) {
	const goroutines, calls = 8, 20000
	var wg sync.WaitGroup
	var mu sync.Mutex
	lost, foreign := 0, 0
	for k := 0; k < goroutines; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			g, err := NewGraph()
			if err != nil {
				panic(err)
			}
			defer g.Close()
			for i := 0; i < calls; i++ {
				length := -int64(k*calls + i + 1)
				_, err := g.Axis(fmt.Sprintf("G%d", k), length)
				want := fmt.Sprintf("(%d)", length)
				if err == nil || err.Error() == "" {
					mu.Lock()
					lost++
					mu.Unlock()
				} else if !strings.Contains(err.Error(), want) {
					mu.Lock()
					foreign++
					mu.Unlock()
				}
			}
		}(k)
	}
	wg.Wait()
	if lost != 0 || foreign != 0 {
		t.Fatalf("%d lost and %d foreign messages out of %d", lost, foreign, goroutines*calls)
	}
}

// One shape shared by 4 goroutines (shapes are immutable and reference-counted), each iterating
// it, slicing it and making failing calls whose messages name their own offending extent.
func TestSharedShapesAndTheirErrors(t *testing.T) {
	s, err := JaggedShape(3, RowSplits(0, 2, 2, 5))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for k := 0; k < 4; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				it, err := s.Iter(IndexRelative)
				if err != nil {
					errs <- err
					return
				}
				if all, err := it.All(); err != nil || len(all) != 5 {
					errs <- fmt.Errorf("%d indices, %v", len(all), err)
					return
				}
				it.Close()
				extent := -int64(k*1000 + i + 1)
				if _, err := SmoothShape(2, extent); err == nil || !strings.Contains(err.Error(), fmt.Sprint(extent)) {
					errs <- fmt.Errorf("the error of SmoothShape(2, %d): %v", extent, err)
					return
				}
			}
		}(k)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
