import Foundation
import Snapshots

/// The calendar snapshot under the renderer's name: one type, Snapshots' `CalendarSnapshot`
/// (written by `weaver calendar refresh`, read here and by the `__calendar_*` keys).
public typealias CalendarSnapshot = Snapshots.CalendarSnapshot

/// The reminders snapshot under the renderer's name: one type, Snapshots' `RemindersSnapshot`
/// (written by `weaver reminders refresh` and by completing a row, read here and by the
/// `__reminders_*` keys).
public typealias RemindersSnapshot = Snapshots.RemindersSnapshot
public typealias ReminderDays = Snapshots.ReminderDays
