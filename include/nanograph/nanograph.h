/**
 * @file nanograph.h
 * @brief The whole nanograph C API: include this one header.
 */
#ifndef NANOGRAPH_NANOGRAPH_H
#define NANOGRAPH_NANOGRAPH_H

#include "nanograph/base.h"
#include "nanograph/tensor.h"
#include "nanograph/shape.h"
#include "nanograph/jagged.h"
#include "nanograph/graph.h"
#include "nanograph/ops.h"
#include "nanograph/segment.h"
#include "nanograph/autodiff.h"
#include "nanograph/train.h"
#include "nanograph/exec.h"
#include "nanograph/onnx.h"
#include "nanograph/serialize.h"
#include "nanograph/checkpoint.h"
#include "nanograph/api.h"

#endif
