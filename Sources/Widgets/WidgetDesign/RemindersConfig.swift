import BoundedJSON
import Foundation

/// What a Reminders widget shows (the seed app's `remindersConfig` modes).
public enum RemindersModeToken: String, DesignToken {
    /// Due today, and open ones that are overdue (as the Today list of a reminders app).
    case today
    /// Open and past due.
    case overdue
    /// Due after today, within `RemindersSnapshot.soonDays` days.
    case soon
    /// Priority 1–4 (todo.txt A–D): the app's stand-in for "flagged".
    case priority
    /// The one most pressing open reminder, large.
    case focus
    /// Everything in the chosen lists, soonest first.
    case list
}

/// How the rows are laid out.
public enum RemindersPresentationToken: String, DesignToken {
    /// Compact rows (two columns on a medium widget).
    case dense
    /// The first reminder large, the next few small under it.
    case focus
    /// Rows under headings: Overdue, Today, Later, Done.
    case sectioned
}

/// The seed app's `remindersConfig`, read from and written into the design's JSON object with the
/// app's keys, so keys this version does not know survive a round trip through the editor:
/// `mode`, `presentation`, `selectedListIDs`, `hideCompleted`, `showsDueTimes`,
/// `showsProgressBadge`. Reading is tolerant (a wrong type or unknown token reads as the
/// default); the editor (`DesignFields.reminders*`) is strict.
public struct RemindersConfig: Sendable, Equatable {
    public var mode: RemindersModeToken = .today
    public var presentation: RemindersPresentationToken = .dense
    /// Lists to show: a list's name (a calendar's name, a todo.txt `+project`) or a source's id
    /// (`weaver reminders list`); empty means every list.
    public var selectedListIDs: [String] = []
    public var hideCompleted = false
    public var showsDueTimes = true
    public var showsProgressBadge = true

    /// Lists kept; more are ignored when read and refused by the editor.
    public static let maxLists = 50
    public static let maxListIDCharacters = 200

    public init() {}

    /// Reads the app's object; anything else (nil, not an object) gives the defaults.
    public init(json: JSONValue?) {
        guard case .object(let o)? = json else { return }
        // Read as the decoder reads a part, without its findings: a wrong value is the default.
        var quiet = TolerantDecoder(fallbackDate: Date(timeIntervalSince1970: 0))
        Self.rows.decode(o, "remindersConfig", into: &self, with: &quiet)
        if case .array(let ids)? = o["selectedListIDs"] {
            selectedListIDs = ids.prefix(Self.maxLists).compactMap {
                if case .string(let s) = $0, !s.isEmpty { return String(s.prefix(Self.maxListIDCharacters)) }
                return nil
            }
        }
    }

    /// This configuration written over `json` (an object's other keys are kept as they were).
    public func merged(into json: JSONValue?) -> JSONValue {
        var o: [String: JSONValue] = [:]
        if case .object(let existing)? = json { o = existing }
        o.merge(Self.rows.jsonMembers(of: self)) { $1 }
        o["selectedListIDs"] = .array(selectedListIDs.map(JSONValue.string))
        return .object(o)
    }
}

extension WidgetSpec {
    /// The design's reminders configuration, modelled; setting it keeps the object's other keys.
    public var reminders: RemindersConfig {
        get { RemindersConfig(json: remindersConfig) }
        set { remindersConfig = newValue.merged(into: remindersConfig) }
    }
}
