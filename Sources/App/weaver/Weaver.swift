import ArgumentParser
import CLISupport
// Its g_thread_new stands in for GLib's for Pango's font-matching jobs (see fontjobs.c); nothing to call.
import CPangoFontJobs

@main
struct Weaver: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weaver",
        abstract: "Widget designs and template variables for WidgetWeaver on Linux.",
        version: "weaver \(BuildInfo.versionLine)",
        subcommands: [
            Vars.self, Pro.self, Designs.self, Templates.self, Remix.self, Export.self, Import.self,
            Render.self, Tap.self, Serve.self, Desktop.self, Weather.self, CalendarCommand.self, RemindersCommand.self,
            Steps.self, Share.self, AI.self,
        ]
    )

    static func main() { mainWithSubcommandUsage(quick: Render.quickParse) }
}
