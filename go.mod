module github.com/perfcalc/perfcalc

go 1.25.0

require (
	github.com/leanovate/gopter v0.2.11
	github.com/tetratelabs/wazero v1.12.0
)

require golang.org/x/sys v0.44.0
