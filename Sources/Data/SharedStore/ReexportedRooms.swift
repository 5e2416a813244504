// Concepts that used to live in this module and now have rooms of their own. Re-exported so that
// `import SharedStore` keeps giving `CivilCalendar`, `ISODate`, the JSON parser and reader, `LoginEntries`
// and `PlayerHeartbeat` to every existing caller.
@_exported import BoundedJSON
@_exported import CivilDates
@_exported import LoginEntryFiles
@_exported import PlayerLiveness
