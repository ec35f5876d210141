#ifndef CLOCKCOUNTER_H
#define CLOCKCOUNTER_H

/// Mutex acquisitions counted by interposing the pthread lock functions (see CLockCounter.c).
/// Returns -1 when the interposition is not available on this platform (then nothing is counted).
long clock_counter_process_total(void);

/// The same, counted on the calling thread only.
long clock_counter_thread_total(void);

/// 1 when the lock functions are interposed here (glibc: a definition in the executable wins).
int clock_counter_available(void);

/// Debugging aid: while on, every counted acquisition writes its backtrace to stderr.
void clock_counter_trace(int on);

#endif
