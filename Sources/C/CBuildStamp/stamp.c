// `make` writes stamp.generated.h (git commit, build date) beside this file before it builds, and
// touches this file when the values change; a plain `swift build` has no such header and says
// "unknown". A C macro rather than a Swift flag, so a new stamp recompiles one file, not the package.
#include "CBuildStamp.h"
#if __has_include("stamp.generated.h")
#include "stamp.generated.h"
#endif
#ifndef WW_GIT_COMMIT
#define WW_GIT_COMMIT "unknown"
#endif
#ifndef WW_BUILD_DATE
#define WW_BUILD_DATE "unknown"
#endif

const char *cbs_git_commit(void) { return WW_GIT_COMMIT; }
const char *cbs_build_date(void) { return WW_BUILD_DATE; }
