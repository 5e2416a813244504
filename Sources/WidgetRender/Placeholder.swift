// Widget renderers (text/ANSI/SVG) live here.
import WidgetDesign
import Variables
public enum WidgetRenderModule {}
