// Writes a CPU profile (runtime/pprof) of a small deterministic workload: main calls
// work, which calls leaf (small enough to be inlined) and fib (recursive).
package main

import (
	"os"
	"runtime/pprof"
)

var sink uint64

func leaf(x uint64) uint64 { return x*2654435761 ^ (x >> 7) }

func fib(n int) uint64 {
	if n < 2 {
		return uint64(n)
	}
	return fib(n-1) + fib(n-2)
}

//go:noinline
func work(rounds int) {
	for i := 0; i < rounds; i++ {
		var acc uint64
		for j := uint64(0); j < 2000000; j++ {
			acc += leaf(j)
		}
		sink += acc + fib(27)
	}
}

func main() {
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		panic(err)
	}
	work(400)
	pprof.StopCPUProfile()
	f.Close()
}
