module github.com/perfcalc/perfcalc

go 1.24
