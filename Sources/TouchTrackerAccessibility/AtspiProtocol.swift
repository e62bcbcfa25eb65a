/// The parts of AT-SPI 2's D-Bus protocol the bridge speaks (at-spi2-core's `xml/*.xml` and `atspi-constants.h`):
/// the interfaces' introspection, and the numbers of the roles and states it uses.
enum AtspiProtocol {
    static let accessible = "org.a11y.atspi.Accessible"
    static let component = "org.a11y.atspi.Component"
    static let action = "org.a11y.atspi.Action"
    static let selection = "org.a11y.atspi.Selection"
    static let application = "org.a11y.atspi.Application"
    static let eventObject = "org.a11y.atspi.Event.Object"
    /// A window's activation (`window:activate`, `window:deactivate`).
    static let eventWindow = "org.a11y.atspi.Event.Window"
    static let cache = "org.a11y.atspi.Cache"
    /// Where clients ask for the whole tree at once (`GetItems`): the bridge sends none (children are made on
    /// request), and says so with an empty list.
    static let cachePath = "/org/a11y/atspi/cache"

    /// Where the bridge's objects live; the application's own is `root` (the path AT-SPI expects).
    static let basePath = "/org/a11y/atspi/accessible"
    static let rootPath = basePath + "/root"
    /// The reference AT-SPI uses for "no object".
    static let nullPath = "/org/a11y/atspi/null"

    enum Role: UInt32 {
        case canvas = 6
        case frame = 23
        case image = 27
        case menu = 33
        case menuItem = 35
        case panel = 39
        case application = 75
        case notification = 101
    }

    enum State: UInt32 {
        case active = 1
        case checked = 4
        case enabled = 8
        case focusable = 11
        case focused = 12
        case selectable = 22
        case selected = 23
        case sensitive = 24
        case showing = 25
        case visible = 30
        case checkable = 41
    }

    /// Coordinates relative to the screen (AT-SPI's `ATSPI_COORD_TYPE_SCREEN`); the others are the window's.
    static let screenCoordinates: UInt32 = 0

    /// The introspection of every interface the bridge answers.
    static let xml = """
        <node>
          <interface name="org.a11y.atspi.Cache">
            <method name="GetItems"><arg direction="out" type="a((so)(so)(so)iiassusau)"/></method>
          </interface>
          <interface name="org.a11y.atspi.Accessible">
            <property name="Name" type="s" access="read"/>
            <property name="Description" type="s" access="read"/>
            <property name="Parent" type="(so)" access="read"/>
            <property name="ChildCount" type="i" access="read"/>
            <property name="Locale" type="s" access="read"/>
            <property name="AccessibleId" type="s" access="read"/>
            <property name="HelpText" type="s" access="read"/>
            <method name="GetChildAtIndex"><arg direction="in" type="i"/><arg direction="out" type="(so)"/></method>
            <method name="GetChildren"><arg direction="out" type="a(so)"/></method>
            <method name="GetIndexInParent"><arg direction="out" type="i"/></method>
            <method name="GetRelationSet"><arg direction="out" type="a(ua(so))"/></method>
            <method name="GetRole"><arg direction="out" type="u"/></method>
            <method name="GetRoleName"><arg direction="out" type="s"/></method>
            <method name="GetLocalizedRoleName"><arg direction="out" type="s"/></method>
            <method name="GetState"><arg direction="out" type="au"/></method>
            <method name="GetAttributes"><arg direction="out" type="a{ss}"/></method>
            <method name="GetApplication"><arg direction="out" type="(so)"/></method>
            <method name="GetInterfaces"><arg direction="out" type="as"/></method>
          </interface>
          <interface name="org.a11y.atspi.Application">
            <property name="ToolkitName" type="s" access="read"/>
            <property name="Version" type="s" access="read"/>
            <property name="AtspiVersion" type="s" access="read"/>
            <property name="Id" type="i" access="readwrite"/>
          </interface>
          <interface name="org.a11y.atspi.Component">
            <method name="Contains">
              <arg direction="in" type="i"/><arg direction="in" type="i"/><arg direction="in" type="u"/>
              <arg direction="out" type="b"/>
            </method>
            <method name="GetAccessibleAtPoint">
              <arg direction="in" type="i"/><arg direction="in" type="i"/><arg direction="in" type="u"/>
              <arg direction="out" type="(so)"/>
            </method>
            <method name="GetExtents"><arg direction="in" type="u"/><arg direction="out" type="(iiii)"/></method>
            <method name="GetPosition">
              <arg direction="in" type="u"/><arg direction="out" type="i"/><arg direction="out" type="i"/>
            </method>
            <method name="GetSize"><arg direction="out" type="i"/><arg direction="out" type="i"/></method>
            <method name="GetLayer"><arg direction="out" type="u"/></method>
            <method name="GetMDIZOrder"><arg direction="out" type="n"/></method>
            <method name="GrabFocus"><arg direction="out" type="b"/></method>
            <method name="GetAlpha"><arg direction="out" type="d"/></method>
          </interface>
          <interface name="org.a11y.atspi.Action">
            <property name="NActions" type="i" access="read"/>
            <method name="GetDescription"><arg direction="in" type="i"/><arg direction="out" type="s"/></method>
            <method name="GetName"><arg direction="in" type="i"/><arg direction="out" type="s"/></method>
            <method name="GetLocalizedName"><arg direction="in" type="i"/><arg direction="out" type="s"/></method>
            <method name="GetKeyBinding"><arg direction="in" type="i"/><arg direction="out" type="s"/></method>
            <method name="GetActions"><arg direction="out" type="a(sss)"/></method>
            <method name="DoAction"><arg direction="in" type="i"/><arg direction="out" type="b"/></method>
          </interface>
          <interface name="org.a11y.atspi.Selection">
            <property name="NSelectedChildren" type="i" access="read"/>
            <method name="GetSelectedChild"><arg direction="in" type="i"/><arg direction="out" type="(so)"/></method>
            <method name="SelectChild"><arg direction="in" type="i"/><arg direction="out" type="b"/></method>
            <method name="DeselectSelectedChild"><arg direction="in" type="i"/><arg direction="out" type="b"/></method>
            <method name="IsChildSelected"><arg direction="in" type="i"/><arg direction="out" type="b"/></method>
            <method name="SelectAll"><arg direction="out" type="b"/></method>
            <method name="ClearSelection"><arg direction="out" type="b"/></method>
            <method name="DeselectChild"><arg direction="in" type="i"/><arg direction="out" type="b"/></method>
          </interface>
        </node>
        """
}
