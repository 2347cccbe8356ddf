/**
 * @file graph.h
 * @brief (being written)
 */
#ifndef NANOGRAPH_GRAPH_H
#define NANOGRAPH_GRAPH_H

#include "nanograph/base.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif
