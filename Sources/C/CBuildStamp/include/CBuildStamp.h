#ifndef CBUILDSTAMP_H
#define CBUILDSTAMP_H

/// The git commit the binary was built from ("unknown" without `make`).
const char *cbs_git_commit(void);
/// The build date, yyyy-mm-dd UTC ("unknown" without `make`).
const char *cbs_build_date(void);

#endif
