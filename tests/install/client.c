/* A program built against an INSTALLED nanograph (by tests/install/run_install_test.sh): it
 * includes only the umbrella header, links only -lnanograph, and checks that the header it was
 * compiled with matches the library it runs with. */
#include <nanograph/nanograph.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    const int32_t header_version =
        NG_VERSION_MAJOR * 10000 + NG_VERSION_MINOR * 100 + NG_VERSION_PATCH;
    if (ng_version_number() != header_version ||
        strcmp(ng_version_string(), NG_VERSION_STRING) != 0) {
        fprintf(stderr, "header %s (%d) but library %s (%d)\n", NG_VERSION_STRING,
                (int)header_version, ng_version_string(), (int)ng_version_number());
        return 1;
    }
    /* A failing call must report through the thread's error, naming the function. */
    if (ng_dtype_size(NG_FLOAT64) != 8 || ng_dtype_size(-1) != 0 ||
        ng_last_status() != NG_ERR_DTYPE || strncmp(ng_last_error(), "ng_dtype_size: ", 15) != 0) {
        fprintf(stderr, "unexpected error reporting: status %s, error \"%s\"\n",
                ng_status_string(ng_last_status()), ng_last_error());
        return 1;
    }
    printf("nanograph %s: installed header and library agree\n", ng_version_string());
    return 0;
}
