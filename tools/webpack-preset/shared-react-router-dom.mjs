// What the storefront shares under the key `react-router-dom`: the part of its API the shell and the
// remotes use, and nothing else. A module shared through Module Federation cannot be tree-shaken (any
// consumer may use any export), so sharing the package itself ships all of React Router (data routers,
// server rendering, RSC: ~61 KB gzipped) on every first load; this subset is ~14 KB. It is still one
// instance for the whole page, so every remote sees the shell's router context.
//
// A remote that needs another export adds it here (and the shell is rebuilt first): the test beside this
// file fails when a front-end imports a name that is missing. Builds made before this subset existed
// consume the same key and use only these names.
export {
  BrowserRouter,
  Link,
  Navigate,
  NavLink,
  Outlet,
  Route,
  Routes,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router';
