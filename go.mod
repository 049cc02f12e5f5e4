module github.com/perfcalc/perfcalc

go 1.24

require github.com/leanovate/gopter v0.2.11
