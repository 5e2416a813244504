/// WMO weather interpretation codes (WMO 4677 as Open-Meteo uses them) → condition text and an
/// SF Symbol name, the names the seed's `__weather_symbol` carries; the renderer maps them to icons.
public enum WeatherCode {
    public struct Description: Sendable, Equatable {
        public var condition: String
        public var symbol: String
    }

    public static func describe(_ code: Int, isDay: Bool = true) -> Description {
        func d(_ text: String, _ day: String, _ night: String? = nil) -> Description {
            Description(condition: text, symbol: isDay ? day : (night ?? day))
        }
        switch code {
        case 0: return d("Clear", "sun.max.fill", "moon.stars.fill")
        case 1: return d("Mostly clear", "sun.min.fill", "moon.fill")
        case 2: return d("Partly cloudy", "cloud.sun.fill", "cloud.moon.fill")
        case 3: return d("Cloudy", "cloud.fill")
        case 45: return d("Fog", "cloud.fog.fill")
        case 48: return d("Freezing fog", "cloud.fog.fill")
        case 51: return d("Light drizzle", "cloud.drizzle.fill")
        case 53: return d("Drizzle", "cloud.drizzle.fill")
        case 55: return d("Heavy drizzle", "cloud.drizzle.fill")
        case 56: return d("Light freezing drizzle", "cloud.sleet.fill")
        case 57: return d("Freezing drizzle", "cloud.sleet.fill")
        case 61: return d("Light rain", "cloud.rain.fill")
        case 63: return d("Rain", "cloud.rain.fill")
        case 65: return d("Heavy rain", "cloud.heavyrain.fill")
        case 66: return d("Light freezing rain", "cloud.sleet.fill")
        case 67: return d("Freezing rain", "cloud.sleet.fill")
        case 71: return d("Light snow", "cloud.snow.fill")
        case 73: return d("Snow", "cloud.snow.fill")
        case 75: return d("Heavy snow", "cloud.snow.fill")
        case 77: return d("Snow grains", "cloud.snow.fill")
        case 80: return d("Light showers", "cloud.sun.rain.fill", "cloud.moon.rain.fill")
        case 81: return d("Showers", "cloud.rain.fill")
        case 82: return d("Violent showers", "cloud.heavyrain.fill")
        case 85: return d("Snow showers", "cloud.snow.fill")
        case 86: return d("Heavy snow showers", "cloud.snow.fill")
        case 95: return d("Thunderstorm", "cloud.bolt.rain.fill")
        case 96: return d("Thunderstorm with hail", "cloud.bolt.rain.fill")
        case 99: return d("Thunderstorm with heavy hail", "cloud.bolt.rain.fill")
        default: return d("Unknown", "cloud.fill")
        }
    }
}
