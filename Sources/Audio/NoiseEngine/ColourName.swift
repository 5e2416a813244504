/// The one name each noise colour has wherever it is shown: `noise show`, the mixer (and the
/// script that names a colour while its slider moves) and the Noise widget, which capitalises it.
public enum ColourName {
    /// Upper bounds (exclusive) of β and their names; the last name covers the rest up to 2.
    public static let bands: [(below: Double, name: String)] = [
        (0.25, "white"), (0.75, "white to pink"), (1.25, "pink"), (1.75, "pink to brown"), (.infinity, "brown"),
    ]

    /// The name of β (0 white, 1 pink, 2 brown), lower case.
    public static func of(_ beta: Double) -> String {
        for band in bands where beta < band.below { return band.name }
        return bands[bands.count - 1].name
    }

    /// As the start of a line: "Pink to brown".
    public static func capitalised(_ beta: Double) -> String {
        let name = of(beta)
        return name.prefix(1).uppercased() + name.dropFirst()
    }
}
