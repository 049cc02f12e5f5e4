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

// sortFloats sorts a ascending (no NaN: Run keeps none).
func sortFloats(a []float64) {
	heapSort(len(a), func(i, j int) bool { return a[i] < a[j] }, func(i, j int) { a[i], a[j] = a[j], a[i] })
}

// sortStrings sorts a ascending, by bytes.
func sortStrings(a []string) {
	heapSort(len(a), func(i, j int) bool { return a[i] < a[j] }, func(i, j int) { a[i], a[j] = a[j], a[i] })
}
