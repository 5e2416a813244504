/// The design model's numeric and length limits, by name, as code outside the editor uses them.
/// Each is read from the field table (`DesignFields`), where it is described once; only the
/// limits that are not a field's (how many buttons; a file name's length) are stated here.
public enum FieldLimits {
    public static let symbolSizePoints = DesignFields.symbolSize.numberRange
    public static let imageHeightPoints = DesignFields.imageHeight.numberRange
    public static let imageCornerRadiusPoints = DesignFields.imageCornerRadius.numberRange
    public static let spacingPoints = DesignFields.spacing.numberRange
    public static let primaryLineLimitSmall = DesignFields.primaryLineLimitSmall.integerRange
    public static let primaryLineLimit = DesignFields.primaryLineLimit.integerRange
    public static let secondaryLineLimitSmall = DesignFields.secondaryLineLimitSmall.integerRange
    public static let secondaryLineLimit = DesignFields.secondaryLineLimit.integerRange
    public static let paddingPoints = DesignFields.padding.numberRange
    public static let styleCornerRadiusPoints = DesignFields.cornerRadius.numberRange
    public static let overlayOpacity = DesignFields.backgroundOverlayOpacity.numberRange
    public static let styleSymbolSizePoints = DesignFields.styleSymbolSize.numberRange
    public static let incrementAmount = DesignFields.actionIncrementAmount.integerRange
    public static let weatherScale = DesignFields.weatherScale.numberRange
    public static let filterIntensity = DesignFields.imageFilterIntensity.numberRange
    public static let smartPhotoAlgorithmVersion = DesignFields.smartAlgorithmVersion.integerRange

    public static let maxActions = 2
    public static let maxNameCharacters = DesignFields.name.maxLength!
    public static let maxActionTitleCharacters = DesignFields.actionTitle.maxLength!
    public static let maxVariableKeyCharacters = DesignFields.actionVariableKey.maxLength!
    public static let maxCountdownTargetCharacters = DesignFields.countdownTarget.maxLength!
    /// A `resetVariable` action's value.
    public static let maxResetValueCharacters = DesignFields.actionResetValue.maxLength!
    /// An `openURL` action's link, in UTF-8 bytes.
    public static let maxURLCharacters = DesignFields.actionURL.maxLength!
}
