---@meta wayfinder
-- LuaLS definitions of the `wayfinder` module (docs/lua-api.md says what each name does). An editor
-- reads this file through the app's .luarc.json (`workspace.library`); Wayfinder itself never
-- requires it. Every function here is an empty body: the spec lua/spec/annotations_spec.lua loads
-- this file and compares its names with the module a running host exports, both ways.

---@alias wayfinder.mode "create"|"share"|"modal"|"popover"|"none"
---@alias wayfinder.persistence "none"|"top"|"all"
---@alias wayfinder.presentation "push"|"replace"|"replace_root"|"clear_all"|"refresh"|"pop"|"none"
---@alias wayfinder.value nil|boolean|number|string|table

---A route's options (`wf.map:from`'s third argument).
---@class wayfinder.route_options
---@field mode? wayfinder.mode|"external" how the controller is presented (default "create"; "external" is mode "none" with external = true)
---@field presentation? wayfinder.presentation what opening it does to the tree around it (default "push")
---@field guard? fun(route: wayfinder.guarded_route): boolean, string? true to let the open through, or false and a URL to open instead
---@field parent? string|fun(route: wayfinder.guarded_route): string? a URL opened first, under the new screen: a URL, a pattern of the route's own params ("tt://cat/(c)"), or a function of the match answering a URL or nil
---@field selector? string the constructor to call ("initWithFood:" calls initWithFood)
---@field transition? string a transition name, kept with the route for the front end
---@field external? boolean the route may be opened by a link from outside the app (nav:handle_link)
---@field name? string the route's name

---What `wf.map:match` answers and a function target receives.
---@class wayfinder.route
---@field url string the URL as given
---@field pattern string the winning pattern's text
---@field params table<string, any> the bound params, by name, typed
---@field query table<string, any> the query values (a repeated key gives a list; a bare key is true)
---@field fragment string|nil the decoded fragment
---@field moved table[]|nil (wf.map:match) each move the URL followed to the route, in order: { from, to, old, new } (the URLs, then the patterns of the move)
---@field mode wayfinder.mode
---@field presentation wayfinder.presentation
---@field guard function|nil the route's guard
---@field selector string|nil the selector option or the one deduced from the param names
---@field selector_option string|nil the route's `selector` option as it was given
---@field method string|nil the constructor a class target gets
---@field target table|function the route's target
---@field param_names string[] the param names in pattern order
---@field specificity integer literals count 2, params 1, a catch-all 0
---@field parent string|function|nil
---@field transition string|nil
---@field external boolean|nil
---@field name string|nil
---@field context wayfinder.context|nil (function targets) the new screen's context
---@field state any (function targets) the action's state

---What a route's guard is handed.
---@class wayfinder.guarded_route
---@field url string
---@field pattern string
---@field params table<string, any>
---@field query table<string, any>
---@field fragment string|nil
---@field link boolean true for a link from outside the app

---The open a guard keeps waiting (`wf.navigator:pending()`).
---@class wayfinder.pending
---@field url string
---@field link boolean it came from outside the app
---@field presentation wayfinder.presentation|nil
---@field since integer when it was stopped, in seconds of the host's clock

---What `wf.navigator:open` takes besides a URL string; a named route's action is
---`wayfinder.route_action` (`wayfinder routes APP --lua-defs` writes the app's).
---@class wayfinder.action: wayfinder.action_options
---@field url string

---An action's fields besides what it opens.
---@class wayfinder.action_options
---@field query? table values that join the URL's query, handed over by reference
---@field parent? string overrides the route's parent
---@field presentation? wayfinder.presentation overrides the route's presentation
---@field state? any reaches `route.state` and the controller's `restore(state)`
---@field context? wayfinder.context the new screen's context (else a layer over the opener's)
---@field animated? boolean
---@field transition? string

---What a controller's `render` returns.
---@class wayfinder.screen
---@field title? string
---@field lines? string[]
---@field links? ({ [1]: string, [2]: string }|{ title: string, url: string })[]
---@field fields? wayfinder.field[] what the user types or picks; the values live with the screen
---@field buttons? ({ [1]: string, [2]: string }|{ title: string, method: string })[] a title and the controller method it calls with the field values

---A field of a screen: what was typed into it replaces `value` on every render.
---@class wayfinder.field
---@field name string the key of its value in the table a button's method receives
---@field label? string what the screen shows beside it (its name when absent)
---@field kind? "text"|"secret"|"toggle"|"choice" "text" when absent; a secret is shown masked and never saved
---@field value? string|boolean its value before anything is typed (a toggle's is a boolean)
---@field choices? string[] what a choice field may hold
---@field sample? string|boolean what `wayfinder crawl` types before pressing a button (else the field as it is)

---A controller class made by `wf.controller`; the host calls the hooks that exist.
---@class wayfinder.controller
---@field url string the URL the controller was opened with (set before the constructor runs)
---@field query table the query table
---@field context wayfinder.context the controller's context
---@field fragment? string a fragment handed over as data
---@field important? boolean restore the saved state even when it expired
---@field selected? integer the selected row (saved by model_id)
---@field anchor? integer the first row in view (saved by model_id)
---@field __name string
---@field __index table
local Controller = {}
---Makes an instance: `setmetatable(fields or {}, Class)`.
---@param fields? table
---@return wayfinder.controller
function Controller:new(fields) end
---@return wayfinder.screen
function Controller:render() end
function Controller:appear() end
function Controller:disappear() end
---@param state table what to keep for this entry
---@return boolean|nil false to leave the entry out of the saved state
function Controller:persist(state) end
---@param state table what persist wrote (or the action's state)
function Controller:restore(state) end
---@param text string a fragment the pattern names no method for
function Controller:fragment(text) end
---@param index integer
---@return string|nil
function Controller:model_id(index) end
---@param model_id string
---@return integer|nil
function Controller:index_of(model_id) end
---@return boolean
function Controller:important() end
---@param route wayfinder.route the last constructor tried
function Controller:init(route) end

---The delegate's hooks (`wf.navigator.delegate`); each is optional.
---@class wayfinder.delegate
---@field should_open? fun(url: string): boolean
---@field url_to_open? fun(url: string): string|false|nil
---@field will_open? fun(url: string, controller: table)
---@field did_not_match? fun(url: string)
---@field open_external? fun(url: string)

---A layer of the context chain.
---@class wayfinder.context
---@field name string|nil
local Context = {}
---@param key string
---@param name? string read only the outermost layer of this name
---@return any
function Context:get(key, name) end
---@param key string
---@param value any
---@param name? string write to the outermost layer of this name
---@return wayfinder.context self
function Context:set(key, value, name) end
---@param key string
---@param name? string
---@return boolean removed
function Context:remove(key, name) end
---@return string[]
function Context:keys() end
---@return string
function Context:dump() end
---@generic O
---@param key string
---@param owner O held weakly
---@param fn fun(owner: O, value: any, key: string)
---@return wayfinder.context self
function Context:observe(key, owner, fn) end
---@param owner any
---@return wayfinder.context self
function Context:unobserve(owner) end

---An app a spec launched (`wf.testing.launch`).
---@class wayfinder.testing.app
local App = {}
---@param url string
---@param options? { presentation?: wayfinder.presentation }
---@return boolean ok, string|nil reason
function App:open(url, options) end
---Opens in the visible screen's place (presentation "replace").
---@param url string
---@return boolean ok, string|nil reason
function App:replace(url) end
---A link from outside the app: only routes marked external open.
---@param url string
---@return boolean ok, string|nil reason
function App:handle_link(url) end
---Opens the app's route named `name`, its params checked (a mistake is raised at the spec's line).
---@param name wayfinder.route_name
---@param params? table
---@return boolean ok, string|nil reason
function App:open_route(name, params) end
---@return boolean ok, string|nil reason
function App:pop_to_root() end
---Asks the guard of the pending open again: true when it opened.
---@return boolean ok, string|nil reason
function App:resume() end
---@return wayfinder.pending|nil
function App:pending() end
---@return boolean ok, string|nil reason
function App:back() end
---@return boolean ok, string|nil reason
function App:dismiss() end
---@param tab integer from 1
---@return boolean ok, string|nil reason
function App:select(tab) end
---@return boolean ok, string|nil reason
function App:relaunch() end
---@return boolean ok, table|string changes_or_reason { added, removed, changed, warnings }
function App:reload() end
---@return boolean ok, string|nil reason
function App:close() end
---@return string|nil
function App:url() end
---@return table
function App:tree() end
---@return { title?: string, lines: string[], links: { title: string, url: string }[], fields: { name: string, label: string, kind: string, value: string|boolean, choices: string[] }[], buttons: { title: string, method: string }[] }|nil
function App:render() end
---Taps the visible screen's button, link or tab titled `title`; raises naming the titles on the screen when none has it.
---@param title string
---@return true
function App:tap(title) end
---Sets the visible screen's field named or labelled `name`; raises when there is none or the value does not fit it.
---@param name string
---@param value string|boolean
---@return true
function App:fill(name, value) end
---Whether the visible screen shows `text` (in its title, lines, link, button and tab titles, field labels and values).
---@param text string
---@return boolean seen, string|nil shown the screen's texts, one a line, when not seen
function App:see(text) end
---@return { constructed: integer, launches: integer, reloads: integer, warnings: string[], running: boolean }
function App:stats() end
---Moves the app's clock on (never backwards), so expiry is tested without waiting.
---@param seconds number
---@return boolean ok, string|nil reason
function App:advance(seconds) end

---@class wayfinder
local wf = {}

---@type string
wf.version = "0.1.0"

---Makes a controller class; `base` becomes its metatable.
---@param name string
---@param base? table
---@return wayfinder.controller
function wf.controller(name, base) end

---@class wayfinder.app_config
---@field name? string
---@field tabs? (string|{ [1]: string, [2]: string }|{ url: string, title?: string })[] a URL, { "Title", url } or { url = ..., title = ... }
---@field root? string
---@field persistence? wayfinder.persistence
---@field expiration? number seconds; 0 = never
---@field pending_expiration? number seconds a pending open waits (default 3600); 0 = for ever
---@field version? integer the app's version, from 1 (the default); every saved state records it
---@field link_prefixes? table<string, string> outside prefix -> app prefix: a link under the first is read as the app URL under the second
---@field migrate? fun(state: wayfinder.saved_state, from: integer, to: integer): wayfinder.saved_state upgrades a state an older version saved

---A saved state as `migrate` sees it: the tree by name (docs/persistence.md, "Versions and migrations").
---@class wayfinder.saved_state
---@field app string to read
---@field mode wayfinder.persistence to read
---@field saved_at string to read (ISO 8601, UTC)
---@field stack? wayfinder.saved_entry[] the root stack, or
---@field tabs? wayfinder.saved_entry[][] one stack per tab
---@field selected? integer the selected tab, from 1
---@field modals wayfinder.saved_entry[][]
---@field popover? wayfinder.saved_entry
---@field pending? wayfinder.saved_pending the open a guard keeps waiting; nil drops it

---The open a guard keeps waiting, as `migrate` sees it.
---@class wayfinder.saved_pending
---@field url string
---@field query? table<string, any>
---@field parent? string
---@field state? table handed to restore(state) when it opens
---@field presentation? wayfinder.presentation
---@field link boolean it came from outside the app
---@field since string when its guard stopped it (ISO 8601, UTC)

---@class wayfinder.saved_entry
---@field url string
---@field query? table<string, any>
---@field state? table what persist(state) wrote
---@field title? string
---@field important boolean
---@field model? { selected: any, anchor: any }
---@field context? wayfinder.saved_context

---@class wayfinder.saved_context
---@field name? string
---@field fields? table<string, string>
---@field values table<string, any>
---@field nils? table<string, true> keys set to nil on this layer
---@field app? true the app's own layer
---@field inner? wayfinder.saved_context

---Declares the app: its name, what it shows at launch, how it persists.
---@param config wayfinder.app_config
---@return wayfinder.app_config
function wf.app(config) end

---The class of the screens the Swift host makes under `name` (docs/embedding.md, "Native
---screens"): a route target, as `wf.map:from("tt://camera", wf.native "Camera")`. Its
---controllers' render() answers the screen's title. A name the host makes no screen for is an
---error.
---@param name string
---@return wayfinder.controller
function wf.native(name) end

---The URL for an object, by the generators `wf.map:url` registered.
---@param obj table
---@param name? string
---@return string|nil url, string|nil reason
function wf.url_for(obj, name) end

---The URL of the route named `name`, filled from `params`; a missing, unknown or mistyped param
---is raised at the caller's line.
---@param name wayfinder.route_name
---@param params? table
---@return string url
function wf.url_for_route(name, params) end

---@class wayfinder.map
wf.map = {}
---@param pattern string
---@param target table|fun(route: wayfinder.route): any
---@param options? wayfinder.route_options
---@return wayfinder.map
function wf.map:from(pattern, target, options) end
---@param pattern string
---@return boolean removed
function wf.map:remove(pattern) end
---URLs of `old_pattern` now live at `new_pattern` (params carried by name).
---@param old_pattern string
---@param new_pattern string
---@return wayfinder.map
function wf.map:moved(old_pattern, new_pattern) end
---@param url string
---@return wayfinder.route|nil route, string|nil reason
function wf.map:match(url) end
---@return wayfinder.route[]
function wf.map:routes() end
---@param name string
---@param spec string|fun(text: string): any a Lua pattern (anchored), or a function answering the value or nil
---@return wayfinder.map
function wf.map:type(name, spec) end
---@param class table
---@param name_or_pattern string
---@param pattern? string
---@return wayfinder.map
function wf.map:url(class, name_or_pattern, pattern) end
---@param obj table
---@param name? string
---@return string|nil url, string|nil reason
function wf.map:url_for(obj, name) end
---@param name wayfinder.route_name
---@param params? table
---@return string url
function wf.map:url_for_route(name, params) end

---@class wayfinder.codec
wf.codec = {}
---@param bytes string
---@return string token
function wf.codec.encode_id(bytes) end
---@param token string
---@return string|nil bytes, string|nil reason
function wf.codec.decode_id(token) end
---@param text string
---@return string|nil escaped, string|nil reason
function wf.codec.escape(text) end
---@param text string
---@return string|nil text, string|nil reason
function wf.codec.unescape(text) end
---@param values table<string, any>
---@return string|nil query, string|nil reason
function wf.codec.query(values) end
---@param query string
---@return table|nil values, string|nil reason
function wf.codec.parse_query(query) end

---@class wayfinder.navigator
---@field delegate wayfinder.delegate|nil
---@field persistence wayfinder.persistence
---@field expiration number
---@field pending_expiration number seconds a pending open waits before it is dropped; 0 = for ever
wf.navigator = {}
---@param target string|wayfinder.action|wayfinder.route_action
---@return any controller, string|nil reason
function wf.navigator:open(target) end
---Opens in the visible screen's place (presentation "replace"): back goes where it went before.
---@param target string|wayfinder.action|wayfinder.route_action
---@return any controller, string|nil reason
function wf.navigator:replace(target) end
---A link from outside the app: only routes marked external open; old URLs move first.
---@param url string
---@return any controller, string|nil reason
function wf.navigator:handle_link(url) end
---Closes the popover and pops the visible stack to its first screen.
---@return boolean|nil popped, string|nil reason
function wf.navigator:pop_to_root() end
---Asks the guard of the pending open again.
---@return any opened_or_false, string|nil reason the controller (or true) when it opened, false when nothing waits or it still waits
function wf.navigator:resume() end
---@return wayfinder.pending|nil
function wf.navigator:pending() end
---Forgets the pending open.
---@return boolean dropped
function wf.navigator:drop_pending() end
---Closes the popover, else pops the visible stack: false when there is nothing to do.
---@return boolean|nil done, string|nil reason
function wf.navigator:back() end
---Closes the popover, else the top modal: false when there is nothing to do.
---@return boolean|nil done, string|nil reason
function wf.navigator:dismiss() end
---@param urls string[]
---@return boolean|nil ok, string|nil reason
function wf.navigator:tabs(urls) end
---@param index integer from 1
---@return boolean|nil selected, string|nil reason
function wf.navigator:select(index) end
---@return table|nil
function wf.navigator:top() end
---@return string|nil
function wf.navigator:url() end
---@return table
function wf.navigator:tree() end
---@return boolean|nil ok, string|nil reason
function wf.navigator:persist() end
---@return boolean|nil restored, string|nil reason false when there was nothing to restore
function wf.navigator:restore() end

---Makes a context layer: `wf.context { name = ..., inner = ..., fields = { age = "int" } }`.
---@class wayfinder.context_module
---@overload fun(spec?: { name?: string, inner?: wayfinder.context|false, fields?: table<string, string> }): wayfinder.context
wf.context = {}
---The innermost layer of every chain, named "app".
---@type wayfinder.context
wf.context.app = {}
---@param value any
---@return boolean
function wf.context.is(value) end

---Spec files only: drive whole apps.
---@class wayfinder.testing
wf.testing = {}
---@param app_path string
---@param options? { state?: string, memory_limit?: integer, time_limit?: integer, clock?: fun(): number, link?: string }
---@return wayfinder.testing.app|nil app, string|nil reason
function wf.testing.launch(app_path, options) end
---The path taken from the running spec file's directory: `wf.testing.here("..")` is the app above spec/.
---@param path? string
---@return string path
function wf.testing.here(path) end
---@param app_path string
---@return string path
function wf.testing.copy_app(app_path) end
---@param path string
---@param text string
function wf.testing.write(path, text) end
---@param path string
---@return string text
function wf.testing.read(path) end

-- The module, then the classes whose methods live on objects (read by the annotations spec).
return wf, { controller = Controller, context = Context, testing_app = App }
