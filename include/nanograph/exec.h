/**
 * @file exec.h
 * @brief (being written)
 */
#ifndef NANOGRAPH_EXEC_H
#define NANOGRAPH_EXEC_H

#include "nanograph/base.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif
