# Sourced by `npm test` (scripts/test.sh), scripts/setup-tests.sh and every test target
# (tools/run-tests.sh): the tests' own database and storage, whoever starts them, never the
# live ones. ROOT is the repository.
export DATABASE_URL=${TEST_DATABASE_URL:-postgresql://letterbox:letterbox@127.0.0.1:5432/letterbox_test}
export STORAGE_DIR=${TEST_STORAGE_DIR:-$ROOT/tmp/test-storage}
# The tests run on the demo's public secrets; outside the demo the apps refuse them.
export LETTERBOX_DEMO=true
# The table scripts/setup-tests.sh makes in the test database; the tests run nowhere else.
TEST_DATABASE_MARKER=letterbox_test_database
