/**
 * @file tensor.h
 * @brief (being written)
 */
#ifndef NANOGRAPH_TENSOR_H
#define NANOGRAPH_TENSOR_H

#include "nanograph/base.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif
