import ArgumentParser

@main
struct Weaver: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weaver",
        abstract: "Widget designs and template variables for WidgetWeaver on Linux.",
        subcommands: [Vars.self, Pro.self, Designs.self, Templates.self, Remix.self, Export.self, Import.self,
                      Render.self, Tap.self, Serve.self, Weather.self, CalendarCommand.self, Steps.self]
    )
}
