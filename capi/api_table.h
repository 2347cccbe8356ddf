/* The library's one function table, served by ng_get_api(); generated from struct ng_api into
 * the build folder (cmake/GenerateApiTable.cmake). Hidden: hosts reach it only through
 * ng_get_api(). */
#ifndef NANOGRAPH_CAPI_API_TABLE_H
#define NANOGRAPH_CAPI_API_TABLE_H

#include "nanograph/api.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const ng_api_t nanograph_api_table;

#ifdef __cplusplus
}
#endif

#endif
