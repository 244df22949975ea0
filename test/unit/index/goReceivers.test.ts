import { strict as assert } from 'node:assert';
import { indexWorkspace, type IndexedWorkspace } from './fixtureWorkspace';

// Go puts every type of a package in scope, so a method's name alone says little about which type's
// method a call reaches; the receiver's declared type, or the result type of the call that made it, does.
describe('Go method calls by receiver type', () => {
  let workspace: IndexedWorkspace;

  before(async () => {
    workspace = await indexWorkspace({
      'go.mod': 'module example.com/r\n\ngo 1.22\n',
      'router/router.go': [
        'package router', // 1
        '', // 2
        'type Router struct{ routes []*Route }', // 3
        'type Route struct{ host string }', // 4
        '', // 5
        'func NewRouter() *Router { return &Router{} }', // 6
        'func (r *Router) NewRoute() *Route { return &Route{} }', // 7
        'func (r *Router) Host(h string) *Route { return r.NewRoute().Host(h) }', // 8
        'func (r *Route) Host(h string) *Route { r.host = h; return r }', // 9
        '', // 10
        'type Matcher interface{ Host(h string) *Route }', // 11
        'func Match(m Matcher) { m.Host("a") }', // 12
        '', // 13
        'func routes(r *Router) { for _, x := range r.routes { x.Host("b") } }', // 14
        'type Server struct{ Main *Route; next *Server }', // 15
        'func (s *Server) Start() { s.Main.Host("c"); n := s.next; n.Main.Host("e") }', // 16
      ].join('\n'),
      'app/main.go': [
        'package main', // 1
        '', // 2
        'import (', // 3
        '\t"net/http"', // 4
        '\t"example.com/r/router"', // 5
        ')', // 6
        '', // 7
        'func main() {', // 8
        '\tr := router.NewRouter()', // 9
        '\tr.Host("example.com")', // 10
        '\tvar rt *router.Route', // 11
        '\trt.Host("a")', // 12
        '\treq, _ := http.NewRequest("GET", "/", nil)', // 13
        '\treq.Host("x")', // 14
        '}', // 15
        'func serve(s router.Server) { s.Main.Host("d") }', // 16
        'func other(s *http.Server) { s.Main.Host("f") }', // 17: a library's Server
      ].join('\n'),
    });
  });

  after(() => workspace.dispose());

  const callers = (line: number) =>
    workspace.index
      .callers({ name: 'Host', path: 'router/router.go', line }, 100)
      .map((c) => `${c.path}:${c.line} ${c.confidence}`)
      .sort();

  it("resolves a call on a variable declared with the method's type or made by a function that returns it", () => {
    assert.deepEqual(
      callers(8),
      ['app/main.go:10 resolved', 'router/router.go:12 likely', 'router/router.go:14 likely'],
      'r := router.NewRouter() is a *Router; rt (line 12) is a *Route; Router implements Matcher too',
    );
  });

  it('resolves a call on the result of a call, counts calls through an interface the type implements as likely, and leaves library values out', () => {
    assert.deepEqual(
      callers(9).filter((c) => !c.includes('.go:16 ')),
      [
        'app/main.go:12 resolved', // var rt *router.Route
        'router/router.go:12 likely', // m.Host through Matcher, which Route implements
        'router/router.go:14 likely', // a range variable: its type is not written down
        'router/router.go:8 resolved', // r.NewRoute().Host(h)
      ],
      'req.Host (line 14) is called on what http.NewRequest returned',
    );
  });

  it("resolves a call on a struct's field of the method's type, in its package and in another, and through a variable that holds a field", () => {
    assert.deepEqual(
      callers(9).filter((c) => c.includes('.go:16 ')),
      ['app/main.go:16 resolved', 'router/router.go:16 resolved', 'router/router.go:16 resolved'],
    );
    assert.deepEqual(
      callers(8).filter((c) => c.includes('.go:16 ')),
      [],
      "a Route field's Host is not the Router's",
    );
    assert.deepEqual(
      callers(9).filter((c) => c.includes('.go:17 ')),
      [],
      "another package's Server is not the workspace's",
    );
  });

  it('follows what an embedded struct promotes: its methods, its fields, and the interfaces it makes the outer struct implement', async () => {
    const ws = await indexWorkspace({
      'go.mod': 'module example.com/e\n\ngo 1.22\n',
      'ast/ast.go': [
        'package ast', // 1
        'type Segments struct{}', // 2
        'func (s *Segments) At(i int) int { return i }', // 3
        'type BaseNode struct{ parent *BaseNode }', // 4
        'func (n *BaseNode) Parent() *BaseNode { return n.parent }', // 5
        'type BaseBlock struct {', // 6
        '\tBaseNode', // 7
        '\tlines Segments', // 8
        '}', // 9
        'type Node interface {', // 10
        '\tParent() *BaseNode', // 11
        '\tKind() int', // 12
        '}', // 13
        'type Paragraph struct{ BaseBlock }', // 14
        'func (p *Paragraph) Kind() int { return p.lines.At(0) }', // 15
        'type Own struct{ BaseNode }', // 16
        'func (o *Own) Parent() *BaseNode { return nil }', // 17
        'func Walk(n Node, p *Paragraph, o *Own) { n.Kind(); p.Parent(); o.Parent() }', // 18
      ].join('\n'),
    });
    try {
      const at = (name: string, line: number) =>
        ws.index
          .callers({ name, path: 'ast/ast.go', line }, 100)
          .filter((c) => c.confidence !== 'name')
          .map((c) => `${c.line}:${c.column} ${c.confidence}`)
          .sort();
      assert.deepEqual(at('At', 3), ['15:49 resolved'], 'p.lines is the field BaseBlock gives Paragraph');
      assert.deepEqual(
        at('Parent', 5),
        ['18:55 resolved'],
        "Paragraph has BaseNode's Parent through BaseBlock; Own has its own",
      );
      assert.deepEqual(at('Kind', 15), ['18:45 likely'], 'Paragraph implements Node with the Parent it embeds');
    } finally {
      ws.dispose();
    }
  });
});
