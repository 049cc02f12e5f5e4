// Package doccheck checks the repository's documents. Its tests run under
// go test ./..., so that doc/ holds documents only:
//
//   - every citation of a document of doc/ (its path, optionally followed by
//     a section sign and a section number; citations_test.go shows the
//     form) names a document that exists and a section that it has, and no
//     file cites the specification folder outside the repository;
//   - every relative link of README.md and of doc/'s documents names a file
//     of the repository, and a link to a heading names a heading it has;
//   - README.md stays short (at most 150 lines).
//
// The package holds no code besides its tests.
package doccheck
