#!/usr/bin/env python3
"""ONNX's checker (with shape inference, full_check) over every *.onnx file of a folder.

    check_models.py DIR
"""
import glob
import os
import sys

import onnx

files = sorted(glob.glob(os.path.join(sys.argv[1], "*.onnx")))
if not files:
    sys.exit(f"no .onnx files in {sys.argv[1]}")
for path in files:
    model = onnx.load(path)
    onnx.checker.check_model(model, full_check=True)
    print(f"{os.path.basename(path)}: valid, opset {model.opset_import[0].version}, "
          f"{len(model.graph.node)} nodes")
