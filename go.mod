module github.com/perfcalc/perfcalc

go 1.25.0

require (
	github.com/leanovate/gopter v0.2.11
	github.com/parquet-go/parquet-go v0.32.0
	github.com/tetratelabs/wazero v1.12.0
	golang.org/x/sys v0.44.0
)

require (
	github.com/andybalholm/brotli v1.1.1 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/klauspost/compress v1.17.9 // indirect
	github.com/parquet-go/bitpack v1.0.0 // indirect
	github.com/parquet-go/jsonlite v1.0.0 // indirect
	github.com/pierrec/lz4/v4 v4.1.21 // indirect
	github.com/twpayne/go-geom v1.6.1 // indirect
	google.golang.org/protobuf v1.34.2 // indirect
)
