# Go module (go/): go vet, the race-enabled tests (which include building and
# running a consumer module outside the repository with cargo off PATH) and
# the runnable examples. Links the prebuilt go/lib/linux_amd64/librandp.a
# committed in the module, as a user of the module does; check-go-lib
# (mk/c.mk) fails if that library is stale.
#
#   make test-go         vet + go test -race against the committed library
#   make test-go-local   the same tests against build/librandp.a (make staticlib)

GO_DIR := go

.PHONY: test-go test-go-local
TEST_TARGETS += test-go
test-go:
	cd $(GO_DIR) && $(GO) vet ./...
	cd $(GO_DIR) && $(GO) vet -tags randp_local ./...
	cd $(GO_DIR) && CGO_ENABLED=1 $(GO) test -race -count=1 ./...

test-go-local: staticlib
	cd $(GO_DIR) && CGO_ENABLED=1 $(GO) test -race -count=1 -tags randp_local ./...
