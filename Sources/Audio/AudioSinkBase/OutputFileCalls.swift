import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// The POSIX calls the file and pipe outputs use, each wrapped once: retried on EINTR
/// (`retryOnInterrupt`), failures turned into `AudioOutputError` whose reason is
/// `SystemCallError`'s wording ("No such file or directory (errno 2)").
package enum OutputFileCalls {
    package static func errnoText(_ code: Int32 = errno) -> String { SystemCallError.reason(code) }

    /// Writes all of `count` bytes.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int, backend: String)
        throws(AudioOutputError)
    {
        var offset = 0
        while offset < count {
            let n = retryOnInterrupt { Glibc.write(fd, bytes + offset, count - offset) }
            if n < 0 {
                let e = errno
                throw AudioOutputError(
                    e == EPIPE ? .disconnected : .io, backend: backend, call: "write", reason: errnoText(e))
            }
            offset += n
        }
    }

    /// A regular file written from offset 0, not in append mode, whose header can be fixed up at
    /// the end (`noise render -o - >> file` is a stream, as far as a header is concerned).
    package static func isPatchable(_ fd: Int32) -> Bool {
        lseek(fd, 0, SEEK_CUR) == 0 && fcntl(fd, F_GETFL) & O_APPEND == 0
    }

    package static func pwriteAll(
        _ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int, at offset: Int64, backend: String
    ) throws(AudioOutputError) {
        var done = 0
        while done < count {
            let n = retryOnInterrupt { pwrite(fd, bytes + done, count - done, off_t(offset) + off_t(done)) }
            if n < 0 {
                throw AudioOutputError(.io, backend: backend, call: "pwrite", reason: errnoText())
            }
            done += n
        }
    }
}

func sleepNanoseconds(_ d: Duration) {
    let (s, attos) = d.components
    var request = timespec(tv_sec: Int(s), tv_nsec: Int(attos / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}
