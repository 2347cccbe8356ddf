// The ONNX column of the op table: every op type the exporter writes as a single ONNX node
// (onnx_as) is one the importer translates, so what nanograph exports it can read back.
#include <string>
#include <vector>

#include "core/error.hpp"
#include "graph/graph.hpp"
#include "io/onnx_import_context.hpp"

// cmocka last: its macros would rewrite names in the standard headers.
#include <cstdarg>
#include <cstddef>
#include <csetjmp>
extern "C" {
#include <cmocka.h>
}

namespace {

// The ONNX types of the table's onnx_as rules.
std::vector<std::string> single_node_types() {
    std::vector<std::string> types;
#define onnx_as(Rule, Type) types.push_back(#Type);
#define onnx_by(Rule)
#define onnx_refused(Why)
#define NG_OP(Name, Arity, Class, DTypes, Kernel, Adjoint, Attrs, Onnx) Onnx
#include "graph/op_kinds.def"
#undef onnx_as
#undef onnx_by
#undef onnx_refused
    return types;
}

// Whether the importer has a translation for nodes of `type`: a node without inputs then fails
// for what it lacks, not for its type.
bool importer_knows(const std::string &type) {
    ng::Graph g;
    ng::onnx_io::ImportContext context(g, 17);
    onnx::NodeProto node;
    node.set_op_type(type);
    node.set_name("probe");
    node.add_output("y");
    try {
        ng::onnx_io::translate_node(context, node);
    } catch (const ng::Error &e) {
        return std::string(e.what()).find("is not supported by nanograph's ONNX importer") ==
               std::string::npos;
    }
    return true;
}

void exported_single_node_types_are_imported(void **) {
    const std::vector<std::string> types = single_node_types();
    assert_true(types.size() > 20);
    for (const std::string &type : types)
        if (!importer_knows(type))
            fail_msg("the exporter writes %s, which the importer lacks", type.c_str());
}

void the_probe_tells_an_unknown_type(void **) {
    assert_false(importer_knows("NoSuchOperator"));
    assert_true(importer_knows("Add"));
}

}  // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exported_single_node_types_are_imported),
        cmocka_unit_test(the_probe_tells_an_unknown_type),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
