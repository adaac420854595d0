#!/bin/bash -eu
# ClusterFuzzLite's build step: the one build script of the fuzz targets
# (fuzz/oss-fuzz/build.sh; `make oss-fuzz-check` runs it locally).
exec "$SRC/wsel/fuzz/oss-fuzz/build.sh"
