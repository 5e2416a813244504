#if canImport(Glibc)
    import Glibc
#endif

// `weaver serve` checks its options and execs this with them; see Package.swift for why the server
// is a program of its own. Everything happens in ServeHost (thread code stays out of main.swift).
exit(ServeHost.main(arguments: Array(CommandLine.arguments.dropFirst())))
