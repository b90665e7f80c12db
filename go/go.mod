module github.com/randp/randp/go

go 1.24
