# Generated mutants (scripts/mutgen.py): standard mutation operators over core ref fast
# odds cli (.c files and the inline functions of .h files), a seeded sample of N per system
# (weighted, ring, gslb, shared), each built (-O1) and run against the quick test set
# (unit tests and CLI tests, LeakSanitizer preloaded into the unit tests and into bin/wsel)
# in a scratch copy. A mutant runs only the programs that execute its line (a gcov map of
# the quick set, cached in build-mg-covmap/ by the tree's content); mutants-ci keeps the
# whole quick set (--full), as building that map costs more than its 12 mutants save.
# `make mutants` (stats/mutants.sh) stays the hand-written fault catalog.
#
#   make mutants-sample [N=10] [SEED=1]        N per system; kill rate per folder and per
#                                              system in report/mutants-sample/summary.txt
#   make mutants-ci                            CI's small sample: fails below 90 % killed
N        ?= 10
SEED     ?= 1
MUTGEN   := nice -n 10 python3 scripts/mutgen.py
# CI: the first MUTANTS_CI_N per system of the README's sample (same seed: a sample is a
# prefix of a larger one, per system; 3 x 4 systems = 12 mutants, run interleaved), as many
# as start within MUTANTS_CI_BUDGET seconds after the baseline.
MUTANTS_CI_N      ?= 3
MUTANTS_CI_SEED   ?= 1
MUTANTS_CI_BUDGET ?= 300

.PHONY: mutants-sample mutants-ci mutants-list
mutants-sample: ## generated mutants: sample N (10) per system with SEED (1), kill rate per folder and per system in report/mutants-sample/
	@$(MUTGEN) run -n $(N) --seed $(SEED)

mutants-ci: ## CI's small generated-mutant sample (about 5 min); fails when under 90 % of non-equivalent mutants are killed
	@$(MUTGEN) run -n $(MUTANTS_CI_N) --seed $(MUTANTS_CI_SEED) --budget $(MUTANTS_CI_BUDGET) --min-rate 90 \
	  --skip-equivalent --full

mutants-list: ## every generated mutant id with its source line (scripts/mutgen.py count: totals)
	@python3 scripts/mutgen.py list
