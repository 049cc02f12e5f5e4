package analysis

// heapSort sorts n elements by less, moving them with swap: one
// non-generic sort for every element type (each instance of package
// slices' generic sorts would add about 10–20 KB to the WebAssembly
// module). Not stable: callers give keys without ties.
func heapSort(n int, less func(i, j int) bool, swap func(i, j int)) {
	down := func(root, end int) {
		for {
			child := 2*root + 1
			if child >= end {
				return
			}
			if child+1 < end && less(child, child+1) {
				child++
			}
			if !less(root, child) {
				return
			}
			swap(root, child)
			root = child
		}
	}
	for i := n/2 - 1; i >= 0; i-- {
		down(i, n)
	}
	for end := n - 1; end > 0; end-- {
		swap(0, end)
		down(0, end)
	}
}

// sortFloats sorts a ascending (no NaN: Run keeps none): an introsort
// for float64 alone (quicksort with a median of three, insertion sort
// below 12 elements, heapsort past a depth of 2·log2 n), several times
// faster than heapSort's calls through closures on the millions of values
// of a long log.
func sortFloats(a []float64) {
	depth := 0
	for n := len(a); n > 0; n >>= 1 {
		depth += 2
	}
	introsort(a, depth)
}

func introsort(a []float64, depth int) {
	for len(a) > 12 {
		if depth == 0 {
			heapFloats(a)
			return
		}
		depth--
		// Median of three to a[0], then Hoare's partition around it.
		m := len(a) / 2
		if a[m] < a[0] {
			a[m], a[0] = a[0], a[m]
		}
		if a[len(a)-1] < a[0] {
			a[len(a)-1], a[0] = a[0], a[len(a)-1]
		}
		if a[len(a)-1] < a[m] {
			a[len(a)-1], a[m] = a[m], a[len(a)-1]
		}
		a[0], a[m] = a[m], a[0]
		pivot := a[0]
		i, j := 0, len(a)
		for {
			for i++; i < len(a) && a[i] < pivot; i++ {
			}
			for j--; a[j] > pivot; j-- {
			}
			if i >= j {
				break
			}
			a[i], a[j] = a[j], a[i]
		}
		a[0], a[j] = a[j], a[0]
		// Recurse into the smaller side, loop on the larger.
		if j < len(a)-j {
			introsort(a[:j], depth)
			a = a[j+1:]
		} else {
			introsort(a[j+1:], depth)
			a = a[:j]
		}
	}
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// heapFloats sorts a by heapsort (introsort's fallback).
func heapFloats(a []float64) {
	down := func(root, end int) {
		for {
			child := 2*root + 1
			if child >= end {
				return
			}
			if child+1 < end && a[child] < a[child+1] {
				child++
			}
			if !(a[root] < a[child]) {
				return
			}
			a[root], a[child] = a[child], a[root]
			root = child
		}
	}
	for i := len(a)/2 - 1; i >= 0; i-- {
		down(i, len(a))
	}
	for end := len(a) - 1; end > 0; end-- {
		a[0], a[end] = a[end], a[0]
		down(0, end)
	}
}

// sortStrings sorts a ascending, by bytes.
func sortStrings(a []string) {
	heapSort(len(a), func(i, j int) bool { return a[i] < a[j] }, func(i, j int) { a[i], a[j] = a[j], a[i] })
}
