// Package heapsort sorts in place with one small, non-generic heapsort.
//
// The engine's packages sort with it instead of package slices: every
// element type given to slices.SortFunc is another copy of pattern-defeating
// quicksort in the WebAssembly module (about 20 KB of code each, more than
// half again in tables), while this one function serves them all. Heapsort
// takes O(n log n) comparisons on any input, hostile ones included, and
// allocates nothing; it is not stable, so callers give it a total order.
package heapsort

// Sort sorts the n elements that less and swap index, so that
// less(i, i+1) or the two are equal for every i. less must be a strict
// weak ordering; swap exchanges the elements at i and j.
func Sort(n int, less func(i, j int) bool, swap func(i, j int)) {
	for i := n/2 - 1; i >= 0; i-- {
		siftDown(i, n, less, swap)
	}
	for end := n - 1; end > 0; end-- {
		swap(0, end)
		siftDown(0, end, less, swap)
	}
}

// siftDown moves the element at root down the max-heap of the first n
// elements until neither child is greater.
func siftDown(root, n int, less func(i, j int) bool, swap func(i, j int)) {
	for {
		child := 2*root + 1
		if child >= n {
			return
		}
		if child+1 < n && less(child, child+1) {
			child++
		}
		if !less(root, child) {
			return
		}
		swap(root, child)
		root = child
	}
}
