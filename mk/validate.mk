# Validation: statistical suites, memory checking, fuzzing, stress.
#
#   make stat            the full dieharder battery (dieharder -a) on randp-cat
#   make stat-quick      dieharder subset on randp-cat (>= 1 GiB) and the Go module's streams (cgo and pure Go); a few minutes
#   make valgrind        memcheck on the C test programs and on randp-cat
#   make fuzz            each Go fuzz target for FUZZTIME (default 2m)
#   make fuzz-seed       the Go fuzz targets on their seed corpus only
#   make stress          tests/stress.rs in release mode (fork storm, thread churn, 8 GiB long run)
#   make test-cli        tests/cli.rs and tests/bad_input.rs
#   make test-validate   stat-quick, valgrind, stress, CLI and fuzz seed corpus
#   make throughput      randp-cat against /dev/urandom and `openssl rand`
#   make go-randp-cat    build/go-randp-cat, the Go module's stream program, and
#                        build/go-randp-cat-purego, the same on the pure-Go path
#
# `make test` runs stat-quick and valgrind through TEST_TARGETS; the stress,
# CLI and bad-input tests run in test-rust (`cargo test --release` runs every
# file in tests/) and the fuzz seed corpus in test-go (`go test` runs it), so
# they are not run twice.

RANDP_CAT    := $(RELEASE_DIR)/randp-cat
GO_RANDP_CAT := build/go-randp-cat
GO_RANDP_CAT_PUREGO := build/go-randp-cat-purego
FUZZTIME     ?= 2m
# dieharder tests of stat-quick; together they read about 1.6 GiB.
STAT_QUICK_TESTS    := diehard_birthdays,diehard_rank_32x32,sts_runs,dab_bytedistrib,dab_monobit2
STAT_QUICK_GO_TESTS := diehard_birthdays,dab_bytedistrib
DIEHARDER_INSTALL = command -v dieharder >/dev/null || (apt-get update && apt-get install -y dieharder)

.PHONY: stat stat-quick valgrind fuzz fuzz-seed stress test-cli test-validate throughput go-randp-cat
TEST_TARGETS += stat-quick valgrind

stat: build
	@$(DIEHARDER_INSTALL)
	scripts/stat-dieharder.sh all -- $(RANDP_CAT)

stat-quick: build go-randp-cat
	@$(DIEHARDER_INSTALL)
	scripts/stat-dieharder.sh --min-bytes 1073741824 $(STAT_QUICK_TESTS) -- $(RANDP_CAT)
	scripts/stat-dieharder.sh $(STAT_QUICK_GO_TESTS) -- $(GO_RANDP_CAT) -mode read -chunk 100
	scripts/stat-dieharder.sh diehard_birthdays -- $(GO_RANDP_CAT) -mode read
	scripts/stat-dieharder.sh diehard_birthdays -- $(GO_RANDP_CAT) -mode source
	scripts/stat-dieharder.sh $(STAT_QUICK_GO_TESTS) -- $(GO_RANDP_CAT_PUREGO) -mode read -chunk 100
	scripts/stat-dieharder.sh diehard_birthdays -- $(GO_RANDP_CAT_PUREGO) -mode read
	scripts/stat-dieharder.sh diehard_birthdays -- $(GO_RANDP_CAT_PUREGO) -mode source

# The Go stream program, linked like any user of the module (the committed
# prebuilt library; GO_TAGS=randp_local links build/librandp.a instead).
go-randp-cat:
	@mkdir -p build
	cd go && CGO_ENABLED=1 $(GO) build $(if $(GO_TAGS),-tags $(GO_TAGS)) -o ../$(GO_RANDP_CAT) ./cmd/randp-cat
	cd go && CGO_ENABLED=0 $(GO) build -tags randp_purego -o ../$(GO_RANDP_CAT_PUREGO) ./cmd/randp-cat

valgrind: build test-c-api
	@command -v valgrind >/dev/null || (apt-get update && apt-get install -y valgrind)
	scripts/valgrind-memcheck.sh build/c/test_randp_static -- build/c/test_randp_shared -- $(RANDP_CAT) -n 8M
	@# valgrind's CPU has AES-NI but neither VAES nor AVX-512: the runs above used the AES-NI kernel.
	@b=$$(valgrind -q $(RANDP_CAT) --backend); case "$$b" in \
		"aesni userspace=true") echo "valgrind: the runs above used the AES-NI keystream kernel ($$b)" ;; \
		*) echo "valgrind: expected the AES-NI kernel under valgrind, got: $$b" >&2; exit 1 ;; esac

fuzz:
	cd go && CGO_ENABLED=1 $(GO) test $(if $(GO_TAGS),-tags $(GO_TAGS)) -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(FUZZTIME) .
	cd go && CGO_ENABLED=1 $(GO) test $(if $(GO_TAGS),-tags $(GO_TAGS)) -run '^$$' -fuzz '^FuzzBounded$$' -fuzztime $(FUZZTIME) .

fuzz-seed:
	cd go && CGO_ENABLED=1 $(GO) test $(if $(GO_TAGS),-tags $(GO_TAGS)) -count=1 -run '^Fuzz' .

stress:
	$(CARGO) test --locked --profile tests --test stress

test-cli:
	$(CARGO) test --locked --profile tests --test cli --test bad_input --bin randp-cat

test-validate: stat-quick valgrind stress test-cli fuzz-seed
	@echo "test-validate: all validation passed"

throughput: build
	scripts/stat-throughput.sh $(RANDP_CAT)
