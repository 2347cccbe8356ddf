/**
 * @file train.h
 * @brief (being written)
 */
#ifndef NANOGRAPH_TRAIN_H
#define NANOGRAPH_TRAIN_H

#include "nanograph/base.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif
