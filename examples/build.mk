# make demo: the README's first command (examples/demo.sh).
# make demo-use: rebuilding with a profile (examples/demo-use.sh): heap
# profile and allocation hints on examples/hotcold, function order on
# examples/startup.
.PHONY: demo-run demo-use demo-use-run
demo: deps
	$(MAKE) demo-run

demo-run: all
	examples/demo.sh $(BUILD)

demo-use: deps
	$(MAKE) demo-use-run

demo-use-run: all
	LLVM_DIR=$(LLVM_DIR) examples/demo-use.sh $(BUILD)
