// Package doccheck checks the repository's documents: every citation of a
// document of doc/ (its path, optionally followed by a section sign and a
// section number; citations_test.go shows the form) names a document that
// exists and a section that it has, and no file cites the specification
// folder outside the repository. It holds no code: its test runs under
// go test ./..., so that doc/ holds documents only.
package doccheck
