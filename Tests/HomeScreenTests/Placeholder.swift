import Testing
import HomeScreen
