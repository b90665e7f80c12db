module github.com/randp/randp/tools/benchreport

go 1.26.0

tool golang.org/x/perf/cmd/benchstat

require (
	github.com/BurntSushi/toml v1.6.0
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da
)

require github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
