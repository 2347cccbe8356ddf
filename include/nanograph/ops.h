/**
 * @file ops.h
 * @brief (being written)
 */
#ifndef NANOGRAPH_OPS_H
#define NANOGRAPH_OPS_H

#include "nanograph/base.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif
