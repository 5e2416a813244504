#ifndef C_PANGO_FONT_JOBS_H
#define C_PANGO_FONT_JOBS_H

/// How many of Pango's font-matching jobs this process ran on the calling thread instead of a thread
/// of their own (see fontjobs.c).
long c_pango_font_jobs_run_inline(void);

#endif
