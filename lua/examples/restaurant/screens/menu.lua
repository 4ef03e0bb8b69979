-- A menu: the root of each menu tab. Menus are shared (one per URL), so any link to
-- tt://menu/<n> brings that tab forward instead of stacking a second copy.
local wf = require "wayfinder"
local menus = require "data.menus"

local Menu = wf.controller "Menu"

-- Who takes orders placed from a menu's Order button until the guest picks someone.
Menu.DEFAULT_WAITRESS = "Betty"

function Menu:initWithMenu(page)
  page = tostring(page)
  self.page = page
  self.menu = page:match("^%d+$") and menus[tonumber(page)] or nil
  -- The guest's waitress is app-wide data: read it now, and follow it while this menu lives
  -- (menus sit in other tabs while the guest picks one in the staff list).
  self.waitress = wf.context.app:get("waitress") or Menu.DEFAULT_WAITRESS
  wf.context.app:observe("waitress", self, function(menu, name)
    menu.waitress = name or Menu.DEFAULT_WAITRESS
  end)
end

-- The toolbar's Order button.
function Menu:order_url()
  return "tt://order?waitress=" .. wf.codec.escape(self.waitress) .. "&ref=toolbar"
end

local function every_menu()
  local links = {}
  for n, menu in ipairs(menus) do
    links[n] = { menu.title, "tt://menu/" .. n }
  end
  return links
end

function Menu:render()
  local menu = self.menu
  if not menu then
    return {
      title = "No such menu",
      lines = { ("There is no menu number %s. These are the menus we have:"):format(self.page) },
      links = every_menu(),
    }
  end
  local lines, links = {}, {}
  for _, section in ipairs(menu.sections) do
    local labels = {}
    for _, item in ipairs(section.items) do
      labels[#labels + 1] = item[1]
      links[#links + 1] = { item[1], item[2] }
    end
    local list = table.concat(labels, ", ")
    lines[#lines + 1] = section.heading and (section.heading .. ": " .. list) or list
  end
  lines[#lines + 1] = "Your waitress: " .. self.waitress .. "."
  local sent = wf.context.app:get("lastOrder")
  if sent then lines[#lines + 1] = "Your last order: " .. sent .. " is on its way." end
  links[#links + 1] = { "Order", self:order_url() }
  return { title = menu.title, lines = lines, links = links }
end

return Menu
