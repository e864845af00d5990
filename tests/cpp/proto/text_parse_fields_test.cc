// The battery, part one: the text's syntax and its messages. Field syntax, tokens, which
// fields are set, maps, Any in its expanded form and TensorFlow's own messages, each parsed by
// libprotobuf and by graphport (text_parse_battery.h). Part two is text_parse_values_test.cc.
#include <gtest/gtest.h>

#include <string>

#include "text_parse_battery.h"
#include "text_parse_reference.h"

namespace graphport::proto {
namespace {

using namespace text_parse_testing;  // NOLINT: the shared helpers of these tests

TEST_P(TextParseBattery, LikeLibprotobuf) {
  ExpectLikeLibprotobuf(GetParam().type, GetParam().text);
}

// Field syntax: separators, ':' before messages, both delimiters, lists, comments, unknown
// and reserved names, extensions.
INSTANTIATE_TEST_SUITE_P(
    Syntax, TextParseBattery,
    ::testing::ValuesIn(Cases(kEvery, {"",
                                       "   \n\t # only a comment\n",
                                       "# no newline at the end",
                                       "i32: 1",
                                       "i32:1",
                                       "i32 : 1",
                                       "i32: 1;",
                                       "i32: 1, i64: 2",
                                       "i32: 1; i64: 2;",
                                       "i32: 1,, i64: 2",
                                       "i32: 1 ;; i64: 2",
                                       "i32: 1 ,; i64: 2",
                                       "i32 1",
                                       "i32",
                                       "i32:",
                                       ": 1",
                                       "{}",
                                       "}",
                                       "child { i32: 1 }",
                                       "child: { i32: 1 }",
                                       "child < i32: 1 >",
                                       "child: < i32: 1 >",
                                       "child { i32: 1 >",
                                       "child < i32: 1 }",
                                       "child {",
                                       "child",
                                       "child i32: 1",
                                       "child {}\nchild {}",
                                       "children {} children {}",
                                       "child { child { child {} } }",
                                       "children: [{i32: 1}, <i32: 2>, {}]",
                                       "children: []",
                                       "children: [{}, ]",
                                       "children: [",
                                       "children: [{} {}]",
                                       "children [{}]",
                                       "r_i32: [1, 2, 3]",
                                       "r_i32: []",
                                       "r_i32: [1 2]",
                                       "r_i32: [1,]",
                                       "r_i32: [,]",
                                       "r_i32 [1]",
                                       "r_i32: 1 r_i32: 2 i32: 3 r_i32: 4",
                                       "r_i32: [1] r_i32: [2, 3] r_i64: 4 r_i32: 5",
                                       "i32: [1]",
                                       "child: [{}]",
                                       "r_str: ['a', \"b\" 'c']",
                                       "unpacked_i32: [1, -2] unpacked_db: 1.5 unpacked_i32: 3",
                                       "# c\ni32: 1 # trailing\n# more",
                                       "i32: 1 # no newline",
                                       "nosuch: 1",
                                       "nosuch { }",
                                       "i32: 1\nnosuch: 1",
                                       "Child { }",
                                       "I32: 1",
                                       "[ext.foo]: 1",
                                       "[ext.foo] { }",
                                       "[ext",
                                       "[ext.]: 1",
                                       "[1]: 1",
                                       "80: 1",
                                       "gone: 1",
                                       "gone { a: 1 b { c: \"x\" } d: [1, 2] }",
                                       "gone: [1, -2, {x: 1}, <y: 'z'>, [3]]",
                                       "gone: -inf",
                                       "gone: -Infinity",
                                       "gone: -nan",
                                       "gone: -foo",
                                       "gone: foo",
                                       "gone: \"a\" 'b'",
                                       "gone: -\"a\"",
                                       "gone: {",
                                       "gone",
                                       "old_name < [a.b/c.D]: 1 [e.f] {} >",
                                       "old_name { [a/] {} }",
                                       "gone: 1, i32: 2",
                                       "gone {}, i32: 2",
                                       "gone: 1 ; i32: 2",
                                       "gone { x: 1, y: 2; } i32: 3",
                                       "i32: 1 str: 'x' child { str: 'y' } i64: 2"})));

INSTANTIATE_TEST_SUITE_P(Tokens, TextParseBattery,
                         ::testing::ValuesIn(Cases(kEvery, {"i32: 1\x01",
                                                            "\x01i32: 1",
                                                            "i32: 1 \x7f",
                                                            "\xc3\xa9: 1",
                                                            "i32: \xc3\xa9",
                                                            "i32: 1 /* c */",
                                                            "i32: 1 // c",
                                                            "i32:\t\t1 x",
                                                            "\ti32 x",
                                                            "  \t  \t x",
                                                            "i32: 1\r\ni64: 2 x",
                                                            "i32: 1\v\fi64: 2",
                                                            "i32.5: 1",
                                                            "i32 .5",
                                                            "a.b: 1",
                                                            std::string("# a\0b\ni32: 1", 12),
                                                            std::string("i32: 1 \0", 8),
                                                            "\xef\xbb\xbfi32: 1",
                                                            "i32: 1 $",
                                                            "i32: 1 @",
                                                            "i32: 1 ~",
                                                            "i32: 1 \\",
                                                            "i32: 1 ]",
                                                            "str: 'a'.5",
                                                            "i32: 5.5.5",
                                                            "i32: 1.5e3e",
                                                            "i32: 0x1e5",
                                                            "i32: 0.x"})));

INSTANTIATE_TEST_SUITE_P(Presence, TextParseBattery,
                         ::testing::ValuesIn(Cases(kEvery, {"choice_int: 1",
                                                            "choice_int: 0",
                                                            "choice_int: 1 choice_str: 'a'",
                                                            "choice_str: '' choice_int: 1",
                                                            "choice_msg {} choice_int: 1",
                                                            "choice_int: 1 choice_int: 2",
                                                            "choice_msg {} choice_msg {}",
                                                            "i32: 0 i32: 5",
                                                            "i32: 5 i32: 0",
                                                            "i32: 0 i32: 0",
                                                            "str: '' str: 'a'",
                                                            "str: 'a' str: ''",
                                                            "fl: 0 fl: 1",
                                                            "fl: -0 fl: 1",
                                                            "db: -0.0 db: 1",
                                                            "b: false b: true",
                                                            "b: true b: false",
                                                            "color: COLOR_UNSPECIFIED color: RED",
                                                            "color: RED color: 0",
                                                            "opt_i32: 0 opt_i32: 1",
                                                            "opt_str: '' opt_str: 'a'",
                                                            "child {} child {}",
                                                            "by: '' by: 'x'",
                                                            "u64: 0 u64: 0x10",
                                                            "s64: 0 s64: 1 s64: 2",
                                                            "f32: 0 f32: 0",
                                                            "sf64: 0 sf64: 1"})));

INSTANTIATE_TEST_SUITE_P(
    Maps, TextParseBattery,
    ::testing::ValuesIn(Cases(
        kEvery, {"by_name { key: 'a' value { i32: 1 } } by_name { key: 'b' }",
                 "by_name { value { i32: 1 } key: 'a' }", "by_name {}",
                 "by_name { key: 'a' } by_name { key: 'a' value { i32: 2 } }",
                 "by_name { key: 'a' key: 'b' }", "by_name { key: '' key: 'b' }",
                 "by_name { value {} value {} }", "by_name: [{key: 'x'}, {key: 'y'}]",
                 "by_int { key: -5 value: 'neg' } by_int { key: 7 }",
                 "by_bool { key: true value: -1 } by_bool { key: f }",
                 "by_sint { key: -9223372036854775808 value: RED } by_sint { value: 7 }",
                 "by_fixed { key: 4294967295 value: '\\x00' }",
                 "by_u64 { key: 18446744073709551615 value: -inf }", "by_name { nosuch: 1 }",
                 "by_int: 1", "by_int { key: 1 value: 2 }", "by_name { key: 'a', value: {}; }"})));

INSTANTIATE_TEST_SUITE_P(
    Any, TextParseBattery,
    ::testing::ValuesIn(Cases(
        kEvery,
        {AnyOf(kEveryUrl, "{ i32: 1 }"),
         AnyOf("type.googleprod.com/graphport.text_test.EveryField", "< str: 'x' >"),
         AnyOf(kEveryUrl, ": { i32: 1 }"),
         AnyOf("type.googleapis.com/graphport.text_test.Legacy", "{ a: 1 s: 'x' }"),
         AnyOf(kEveryUrl, "{}"),
         AnyOf("type.example.com/graphport.text_test.EveryField", "{}"),
         AnyOf("type.googleapis.com/graphport.text_test.Nope", "{}"),
         AnyOf("type.googleapis.com/graphport.text_test", "{}"),
         "any { [" + kEveryUrl + "] {} [" + kEveryUrl + "] {} }",
         "any { type_url: 'x' [" + kEveryUrl + "] {} }",
         "any { type_url: '' [" + kEveryUrl + "] {} }",
         "any { [" + kEveryUrl + "] {} type_url: 'x' }",
         "any { [" + kEveryUrl + "] {} value: 'x' }",
         "any { [" + kEveryUrl + "] { i32: 1 } value: 'x' }",
         "any { [" + kEveryUrl + "] {}, }",
         "any { [" + kEveryUrl + "] {} ; }",
         "any { type_url: 'type.googleapis.com/x' value: '\\x08\\x01' }",
         AnyOf(kEveryUrl, "{ " + AnyOf(kEveryUrl, "{ i32: 5 }") + " }"),
         AnyOf(kEveryUrl,
               "{ r_i32: [1, 2] i32: 0 str: 'a' children {} by_name { key: 'z' } by_name { key: "
               "'a' value { i32: 3 } } by_name {} unpacked_i32: [3, 4] child { i32: 1 } "
               "choice_int: 0 fl: -0 db: 0 r_str: ['', 'x'] by_int { value: '' } b: false "
               "opt_i32: 0 r_by: '' color: 0 r_color: [0, NEGATIVE] u64: 0 }"),
         AnyOf(kEveryUrl, "{ by_name { key: 'a' } by_name { key: 'a' value { i32: 1 } } }"),
         AnyOf(kEveryUrl, "{ child { i32: 1 } i32: 2 child { } }"),
         AnyOf(kEveryUrl, "{ r_i32: 1 str: 'x' r_i32: 2 unpacked_db: [1] r_i32: [3] }"),
         AnyOf("type.googleapis.com/graphport.text_test.EveryField.ByNameEntry", "{ key: 'k' }"),
         AnyOf("type.googleapis.com/graphport.text_test.EveryField.ByIntEntry", "{ value: 'v' }"),
         AnyOf("type.googleapis.com/google.protobuf.Any",
               "{ [type.googleapis.com/graphport.text_test.Legacy] { a: 3 } }"),
         "anys: [{[type.googleapis.com/graphport.text_test.Legacy] {a: 1}}, {}]",
         "anys { [type.googleapis.com/graphport.text_test.Legacy] { shade: 3 } }",
         "anys { [type.googleapis.com/graphport.text_test.Legacy] { next { next { a: 1 } } s: "
         "'x' a: 2 } }",
         "anys { [type.googleapis.com/graphport.text_test.Legacy] { a: 0 shade: LIGHT f: 0 r: "
         "[1, 2] s: '' } }",
         AnyOf(kEveryUrl, ""),
         AnyOf(kEveryUrl, "}"),
         "any { [type.googleapis.com/] {} }",
         "any { [type.googleapis.com graphport.X] {} }",
         "any { [foo] {} }",
         "any { [] {} }",
         "any { [type.googleapis.com/a..b] {} }",
         AnyOf(kEveryUrl, "{ nosuch: 1 }"),
         AnyOf(kEveryUrl, "{ i32: 1 i32: 2 }"),
         "i32: 1 [type.googleapis.com/x] {}",
         "any { [" + kEveryUrl + "] 5 }",
         "any { [" + kEveryUrl + "]: 5 }",
         "any { [" + kEveryUrl + "] {",
         "any { [" + kEveryUrl,
         AnyOf(kEveryUrl, "{ gone: 1 }"),
         "any { [type . googleapis . com / graphport . text_test "
         ". EveryField] {} }"})));

INSTANTIATE_TEST_SUITE_P(
    TensorFlow, TextParseBattery,
    ::testing::Values(
        Case{"tensorflow.GraphDef",
             "node { name: 'a' op: 'Const' attr { key: 'value' value { tensor { dtype: DT_FLOAT "
             "tensor_shape { dim { size: 2 } } float_val: [1, 2] } } } attr { key: 'dtype' "
             "value { type: DT_FLOAT } } } versions { producer: 27 }"},
        Case{"tensorflow.GraphDef", "node { name: 'a' attr { key: 'x' value { s: '\\377' } } }"},
        Case{"tensorflow.GraphDef", "node { name: 'a' attr { key: 'x' value { list { } } } }"},
        Case{"tensorflow.GraphDef", "node { name: 'a' input: ['b', '^c'] device: '' }"},
        Case{"tensorflow.GraphDef", "node { name: 'a' } nodes { }"},
        Case{"tensorflow.SavedObjectGraph",
             "nodes { attributes { x: 1 } children { node_id: 1 } } nodes { optional_restore: 1 }"},
        Case{"tensorflow.MetaGraphDef",
             "collection_def { key: 'c' value { any_list { value { "
             "[type.googleapis.com/tensorflow.NodeDef] { name: 'n' attr { key: 'b' value { i: 2 "
             "} } attr { key: 'a' value { f: 1 } } } } } } }"},
        Case{"tensorflow.MetaGraphDef",
             "meta_info_def { any_info { [type.googleapis.com/tensorflow.GraphDef] { node { name: "
             "'x' } versions { producer: 1 } } } tags: 'serve' }"}));

}  // namespace
}  // namespace graphport::proto
