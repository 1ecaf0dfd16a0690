# Everyday commands are scripts (see README.md); this file gathers the slow checks of
# Docs/Reliability.md, which the ordinary test command (scripts/test) leaves out.
SECONDS ?= 600
KILLS ?= 50
ROUNDS ?= 20

.PHONY: test fuzz crash-test concurrency-test asan reliability

# The test suite with coverage, as CI runs it.
test:
	scripts/test

# libFuzzer on the JPEG, PNG, HEIF, WebP and TIFF decoders and the EXIF reader, $(SECONDS) s each.
fuzz:
	scripts/fuzz $(SECONDS)

# SIGKILL at random moments of import, process and export, $(KILLS) times each.
crash-test:
	scripts/install-dependencies
	SHOWHIDE_KILLS=$(KILLS) swift test --scratch-path .build-crash --filter CrashSafetyTests

# Two imports into one new catalogue at once, with searches running, $(ROUNDS) times.
concurrency-test:
	scripts/install-dependencies
	SHOWHIDE_CONCURRENT_ROUNDS=$(ROUNDS) swift test --scratch-path .build-crash --filter ConcurrencyBinaryTests

# The test suite built with the address sanitizer (leaks included, less the suppressed ones).
asan:
	scripts/asan

reliability: crash-test concurrency-test asan fuzz
