#if canImport(Glibc)
    import Glibc
#endif

// `weaver desktop` execs this with the store folder (if one was chosen); see Package.swift for why
// the host is a program of its own. Everything happens in DesktopHost (thread code stays out of main.swift).
exit(DesktopHost.main(arguments: Array(CommandLine.arguments.dropFirst())))
