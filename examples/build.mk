# make demo: the README's first command (examples/demo.sh).
.PHONY: demo-run
demo: deps
	$(MAKE) demo-run

demo-run: all
	examples/demo.sh $(BUILD)
