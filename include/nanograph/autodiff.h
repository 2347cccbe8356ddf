/**
 * @file autodiff.h
 * @brief (being written)
 */
#ifndef NANOGRAPH_AUTODIFF_H
#define NANOGRAPH_AUTODIFF_H

#include "nanograph/base.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif
