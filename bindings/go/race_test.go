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
