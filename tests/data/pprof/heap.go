// Writes a heap profile (runtime/pprof) recording every allocation (MemProfileRate = 1):
// main calls build, which allocates 1000 blocks of 4096 bytes and keeps 100 of them, and
// small, which allocates 2000 blocks of 64 bytes and keeps none.
package main

import (
	"os"
	"runtime"
	"runtime/pprof"
)

var kept [][]byte

//go:noinline
func build() {
	for i := 0; i < 1000; i++ {
		b := make([]byte, 4096)
		if i%10 == 0 {
			kept = append(kept, b)
		}
	}
}

var sink []byte

//go:noinline
func small() {
	for i := 0; i < 2000; i++ {
		sink = make([]byte, 64)
	}
	sink = nil
}

func main() {
	runtime.MemProfileRate = 1
	build()
	small()
	runtime.GC()
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := pprof.WriteHeapProfile(f); err != nil {
		panic(err)
	}
	f.Close()
	runtime.KeepAlive(kept)
}
